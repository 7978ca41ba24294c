import 'package:flutter/material.dart';

class ProductListScreen extends StatelessWidget {
  const ProductListScreen({super.key});

  static const products = ['Trail Runner 2', 'City Sneaker', 'Canvas Slip-On', 'Hiking Boot'];

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Shoes'),
        actions: [
          IconButton(
            icon: const Icon(Icons.shopping_cart_outlined),
            onPressed: () => Navigator.pushNamed(context, '/cart'),
          ),
        ],
      ),
      body: ListView.builder(
        padding: const EdgeInsets.all(8),
        itemCount: products.length,
        itemBuilder: (context, index) {
          return Card(
            child: ListTile(
              leading: const Icon(Icons.sports_handball),
              title: Text(products[index]),
              subtitle: const Text('Free shipping'),
              trailing: const Text('\$89.00'),
            ),
          );
        },
      ),
    );
  }
}
