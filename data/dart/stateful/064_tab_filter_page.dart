import 'package:flutter/material.dart';

class TabFilterPage extends StatefulWidget {
  const TabFilterPage({super.key});

  @override
  State<TabFilterPage> createState() => _TabFilterPageState();
}

class _TabFilterPageState extends State<TabFilterPage> {
  String _filter = 'All';

  static const _orders = [
    ('#1001', 'Delivered'),
    ('#1002', 'Pending'),
    ('#1003', 'Delivered'),
    ('#1004', 'Cancelled'),
  ];

  @override
  Widget build(BuildContext context) {
    final visible = _orders.where((o) => _filter == 'All' || o.$2 == _filter).toList();
    return Scaffold(
      appBar: AppBar(title: const Text('My orders')),
      body: Column(
        children: [
          Wrap(
            spacing: 8,
            children: [
              for (final f in ['All', 'Pending', 'Delivered', 'Cancelled'])
                ChoiceChip(
                  label: Text(f),
                  selected: _filter == f,
                  onSelected: (_) => setState(() => _filter = f),
                ),
            ],
          ),
          Expanded(
            child: ListView(
              children: [
                for (final order in visible)
                  ListTile(
                    title: Text('Order ${order.$1}'),
                    subtitle: Text(order.$2),
                    onTap: () => Navigator.pushNamed(context, '/orders/detail', arguments: order.$1),
                  ),
              ],
            ),
          ),
        ],
      ),
    );
  }
}
