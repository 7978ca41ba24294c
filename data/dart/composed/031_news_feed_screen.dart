import 'package:flutter/material.dart';

class NewsFeedScreen extends StatelessWidget {
  const NewsFeedScreen({super.key});

  static const headlines = [
    'City council approves new bike lanes',
    'Local bakery wins national award',
    'Storm expected to reach coast by Friday',
  ];

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Morning Brief')),
      body: ListView.builder(
        itemCount: headlines.length,
        itemBuilder: (context, index) {
          return Card(
            margin: const EdgeInsets.symmetric(horizontal: 12, vertical: 6),
            child: Column(
              crossAxisAlignment: CrossAxisAlignment.start,
              children: [
                Image.network(
                  'https://news.example.com/thumbs/$index.jpg',
                  height: 140,
                  width: double.infinity,
                  fit: BoxFit.cover,
                ),
                Padding(
                  padding: const EdgeInsets.all(12),
                  child: Text(
                    headlines[index],
                    style: const TextStyle(fontSize: 17, fontWeight: FontWeight.w600),
                  ),
                ),
                ButtonBar(
                  children: [
                    TextButton(
                      onPressed: () => Navigator.pushNamed(context, '/article', arguments: index),
                      child: const Text('Read more'),
                    ),
                  ],
                ),
              ],
            ),
          );
        },
      ),
    );
  }
}
