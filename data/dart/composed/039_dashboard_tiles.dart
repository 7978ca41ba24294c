import 'package:flutter/material.dart';

class DashboardTiles extends StatelessWidget {
  const DashboardTiles({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Dashboard')),
      body: GridView.count(
        crossAxisCount: 2,
        padding: const EdgeInsets.all(16),
        mainAxisSpacing: 12,
        crossAxisSpacing: 12,
        children: [
          _tile(context, Icons.attach_money, 'Revenue', '\$18.2k', '/reports/revenue'),
          _tile(context, Icons.people, 'Customers', '1,204', '/reports/customers'),
          _tile(context, Icons.shopping_bag, 'Orders', '342', '/reports/orders'),
          _tile(context, Icons.trending_up, 'Growth', '+8.1%', '/reports/growth'),
        ],
      ),
    );
  }

  Widget _tile(BuildContext context, IconData icon, String label, String value, String route) {
    return GestureDetector(
      onTap: () => Navigator.pushNamed(context, route),
      child: Container(
        decoration: BoxDecoration(
          color: Colors.blueGrey.shade50,
          borderRadius: BorderRadius.circular(14),
        ),
        padding: const EdgeInsets.all(14),
        child: Column(
          crossAxisAlignment: CrossAxisAlignment.start,
          mainAxisAlignment: MainAxisAlignment.spaceBetween,
          children: [
            Icon(icon, size: 30),
            Text(value, style: const TextStyle(fontSize: 26, fontWeight: FontWeight.bold)),
            Text(label, style: const TextStyle(color: Colors.black54)),
          ],
        ),
      ),
    );
  }
}
