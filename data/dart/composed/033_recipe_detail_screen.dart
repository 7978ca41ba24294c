import 'package:flutter/material.dart';

class RecipeDetailScreen extends StatelessWidget {
  const RecipeDetailScreen({super.key});

  static const ingredients = ['200 g spaghetti', '2 eggs', '50 g pecorino', '100 g guanciale', 'Black pepper'];

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      body: CustomScrollView(
        slivers: [
          SliverAppBar(
            expandedHeight: 220,
            pinned: true,
            flexibleSpace: FlexibleSpaceBar(
              title: const Text('Carbonara'),
              background: Image.network('https://food.example.com/carbonara.jpg', fit: BoxFit.cover),
            ),
          ),
          SliverToBoxAdapter(
            child: Padding(
              padding: const EdgeInsets.all(16),
              child: Column(
                crossAxisAlignment: CrossAxisAlignment.start,
                children: [
                  const Text('Ingredients', style: TextStyle(fontSize: 20)),
                  const SizedBox(height: 8),
                  for (final item in ingredients)
                    Row(
                      children: [
                        const Icon(Icons.check, size: 16, color: Colors.green),
                        const SizedBox(width: 6),
                        Text(item),
                      ],
                    ),
                  const SizedBox(height: 16),
                  const Text('Ready in 25 minutes · Serves 2'),
                ],
              ),
            ),
          ),
        ],
      ),
    );
  }
}
