import 'package:flutter/material.dart';

class PriceTag extends StatelessWidget {
  const PriceTag({super.key, required this.amount});

  final double amount;

  @override
  Widget build(BuildContext context) {
    return Text(
      '\$${amount.toStringAsFixed(2)}',
      style: const TextStyle(fontSize: 18, color: Colors.green),
    );
  }
}
