import 'package:flutter/material.dart';

class AddTaskFab extends StatelessWidget {
  const AddTaskFab({super.key});

  @override
  Widget build(BuildContext context) {
    return FloatingActionButton(
      onPressed: () => Navigator.pushNamed(context, '/tasks/new'),
      tooltip: 'Add task',
      backgroundColor: Colors.teal,
      child: const Icon(Icons.add),
    );
  }
}
