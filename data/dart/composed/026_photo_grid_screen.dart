import 'package:flutter/material.dart';

class PhotoGridScreen extends StatelessWidget {
  const PhotoGridScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Gallery'),
        actions: [
          IconButton(
            icon: const Icon(Icons.upload),
            onPressed: () => Navigator.pushNamed(context, '/gallery/upload'),
          ),
        ],
      ),
      body: GridView.count(
        crossAxisCount: 3,
        mainAxisSpacing: 4,
        crossAxisSpacing: 4,
        padding: const EdgeInsets.all(4),
        children: List.generate(
          24,
          (i) => GestureDetector(
            onTap: () => Navigator.pushNamed(context, '/gallery/photo', arguments: i),
            child: Image.network(
              'https://picsum.example.org/id/$i/300/300',
              fit: BoxFit.cover,
            ),
          ),
        ),
      ),
    );
  }
}
