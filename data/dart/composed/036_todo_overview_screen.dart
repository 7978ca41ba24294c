import 'package:flutter/material.dart';

class TodoOverviewScreen extends StatelessWidget {
  const TodoOverviewScreen({super.key});

  static const tasks = {'Buy milk': true, 'Book dentist': false, 'Pay rent': true, 'Call grandma': false};

  @override
  Widget build(BuildContext context) {
    final done = tasks.values.where((v) => v).length;
    return Scaffold(
      appBar: AppBar(title: const Text('Today')),
      body: Column(
        children: [
          Padding(
            padding: const EdgeInsets.all(16),
            child: Text('$done of ${tasks.length} done', style: const TextStyle(fontSize: 16)),
          ),
          Expanded(
            child: ListView(
              children: [
                for (final entry in tasks.entries)
                  CheckboxListTile(
                    value: entry.value,
                    title: Text(entry.key),
                    onChanged: null,
                  ),
              ],
            ),
          ),
        ],
      ),
      floatingActionButton: FloatingActionButton.extended(
        onPressed: () => Navigator.pushNamed(context, '/todo/add'),
        icon: const Icon(Icons.add_task),
        label: const Text('New task'),
      ),
    );
  }
}
