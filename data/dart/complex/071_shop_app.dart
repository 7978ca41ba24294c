import 'package:flutter/material.dart';

void main() => runApp(const ShopApp());

class Product {
  const Product({required this.id, required this.name, required this.price, required this.imageUrl});

  final int id;
  final String name;
  final double price;
  final String imageUrl;
}

const catalog = [
  Product(id: 1, name: 'Ceramic mug', price: 14.5, imageUrl: 'https://shop.example.com/p/1.jpg'),
  Product(id: 2, name: 'Linen tote', price: 22.0, imageUrl: 'https://shop.example.com/p/2.jpg'),
  Product(id: 3, name: 'Desk lamp', price: 48.9, imageUrl: 'https://shop.example.com/p/3.jpg'),
  Product(id: 4, name: 'Wool throw', price: 65.0, imageUrl: 'https://shop.example.com/p/4.jpg'),
];

class ShopApp extends StatelessWidget {
  const ShopApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Homely',
      theme: ThemeData(colorSchemeSeed: Colors.teal, useMaterial3: true),
      initialRoute: '/',
      routes: {
        '/': (context) => const CatalogScreen(),
        '/cart': (context) => const CartScreen(),
      },
    );
  }
}

class CartModel {
  static final List<Product> items = [];

  static double get total => items.fold(0, (sum, p) => sum + p.price);
}

class CatalogScreen extends StatefulWidget {
  const CatalogScreen({super.key});

  @override
  State<CatalogScreen> createState() => _CatalogScreenState();
}

class _CatalogScreenState extends State<CatalogScreen> {
  int _cartCount = 0;

  void _addToCart(Product product) {
    setState(() {
      CartModel.items.add(product);
      _cartCount = CartModel.items.length;
    });
    ScaffoldMessenger.of(context).showSnackBar(
      SnackBar(content: Text('${product.name} added'), duration: const Duration(seconds: 1)),
    );
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Homely'),
        actions: [
          Badge(
            label: Text('$_cartCount'),
            isLabelVisible: _cartCount > 0,
            child: IconButton(
              icon: const Icon(Icons.shopping_bag_outlined),
              onPressed: () => Navigator.pushNamed(context, '/cart'),
            ),
          ),
          const SizedBox(width: 8),
        ],
      ),
      body: GridView.builder(
        padding: const EdgeInsets.all(12),
        gridDelegate: const SliverGridDelegateWithFixedCrossAxisCount(
          crossAxisCount: 2,
          childAspectRatio: 0.75,
          crossAxisSpacing: 12,
          mainAxisSpacing: 12,
        ),
        itemCount: catalog.length,
        itemBuilder: (context, index) {
          final product = catalog[index];
          return GestureDetector(
            onTap: () => Navigator.push(
              context,
              MaterialPageRoute(builder: (context) => ProductDetailScreen(product: product)),
            ),
            child: Card(
              clipBehavior: Clip.antiAlias,
              child: Column(
                crossAxisAlignment: CrossAxisAlignment.start,
                children: [
                  Expanded(child: Image.network(product.imageUrl, fit: BoxFit.cover)),
                  Padding(
                    padding: const EdgeInsets.all(8),
                    child: Text(product.name, style: const TextStyle(fontWeight: FontWeight.w600)),
                  ),
                  Padding(
                    padding: const EdgeInsets.symmetric(horizontal: 8),
                    child: Text('\$${product.price.toStringAsFixed(2)}'),
                  ),
                  Align(
                    alignment: Alignment.centerRight,
                    child: IconButton(
                      icon: const Icon(Icons.add_shopping_cart),
                      onPressed: () => _addToCart(product),
                    ),
                  ),
                ],
              ),
            ),
          );
        },
      ),
    );
  }
}

class ProductDetailScreen extends StatelessWidget {
  const ProductDetailScreen({super.key, required this.product});

  final Product product;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: Text(product.name)),
      body: ListView(
        children: [
          Image.network(product.imageUrl, height: 300, fit: BoxFit.cover),
          Padding(
            padding: const EdgeInsets.all(16),
            child: Column(
              crossAxisAlignment: CrossAxisAlignment.start,
              children: [
                Text(product.name, style: const TextStyle(fontSize: 26)),
                const SizedBox(height: 8),
                Text('\$${product.price.toStringAsFixed(2)}', style: const TextStyle(fontSize: 20)),
                const SizedBox(height: 16),
                const Text('Handmade in Porto. Dishwasher safe.'),
              ],
            ),
          ),
        ],
      ),
    );
  }
}

class CartScreen extends StatelessWidget {
  const CartScreen({super.key});

  @override
  Widget build(BuildContext context) {
    final items = CartModel.items;
    return Scaffold(
      appBar: AppBar(title: const Text('Your bag')),
      body: items.isEmpty
          ? const Center(child: Text('Nothing here yet'))
          : ListView.separated(
              itemCount: items.length,
              separatorBuilder: (_, __) => const Divider(height: 1),
              itemBuilder: (context, i) => ListTile(
                leading: Image.network(items[i].imageUrl, width: 48),
                title: Text(items[i].name),
                trailing: Text('\$${items[i].price.toStringAsFixed(2)}'),
              ),
            ),
      bottomNavigationBar: SafeArea(
        child: Padding(
          padding: const EdgeInsets.all(16),
          child: ElevatedButton(
            onPressed: items.isEmpty ? null : () => Navigator.popUntil(context, (r) => r.isFirst),
            child: Text('Pay \$${CartModel.total.toStringAsFixed(2)}'),
          ),
        ),
      ),
    );
  }
}
