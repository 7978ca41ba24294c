import 'package:flutter/material.dart';

class CoffeeMenuScreen extends StatelessWidget {
  const CoffeeMenuScreen({super.key});

  static const menu = ['Flat white', 'Cortado', 'Oat latte', 'Cold brew', 'Matcha latte', 'Mocha'];

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Bean There')),
      body: GridView.builder(
        padding: const EdgeInsets.all(12),
        gridDelegate: const SliverGridDelegateWithFixedCrossAxisCount(
          crossAxisCount: 2,
          childAspectRatio: 0.9,
          mainAxisSpacing: 10,
          crossAxisSpacing: 10,
        ),
        itemCount: menu.length,
        itemBuilder: (context, index) => Card(
          child: InkWell(
            onTap: () => Navigator.pushNamed(context, '/menu/item', arguments: menu[index]),
            child: Column(
              mainAxisAlignment: MainAxisAlignment.center,
              children: [
                const Icon(Icons.local_cafe, size: 48, color: Colors.brown),
                const SizedBox(height: 10),
                Text(menu[index], style: const TextStyle(fontSize: 16)),
                const Text('from \$3.20', style: TextStyle(color: Colors.black45)),
              ],
            ),
          ),
        ),
      ),
    );
  }
}
