import 'package:flutter/material.dart';

class SearchFieldPage extends StatefulWidget {
  const SearchFieldPage({super.key});

  @override
  State<SearchFieldPage> createState() => _SearchFieldPageState();
}

class _SearchFieldPageState extends State<SearchFieldPage> {
  final _controller = TextEditingController();
  String _query = '';

  static const cities = ['Amsterdam', 'Athens', 'Barcelona', 'Berlin', 'Bruges', 'Budapest'];

  @override
  void dispose() {
    _controller.dispose();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    final results = cities.where((c) => c.toLowerCase().contains(_query.toLowerCase())).toList();
    return Scaffold(
      appBar: AppBar(
        title: TextField(
          controller: _controller,
          decoration: const InputDecoration(hintText: 'Search cities'),
          onChanged: (text) => setState(() => _query = text),
        ),
      ),
      body: ListView.builder(
        itemCount: results.length,
        itemBuilder: (context, i) => ListTile(
          title: Text(results[i]),
          onTap: () => Navigator.pushNamed(context, '/city', arguments: results[i]),
        ),
      ),
    );
  }
}
