import 'package:flutter/material.dart';

class RoundedBadge extends StatelessWidget {
  const RoundedBadge({super.key});

  @override
  Widget build(BuildContext context) {
    return Container(
      padding: const EdgeInsets.symmetric(horizontal: 10, vertical: 4),
      decoration: BoxDecoration(
        color: Colors.deepOrange,
        borderRadius: BorderRadius.circular(12),
      ),
      child: const Text(
        'NEW',
        style: TextStyle(color: Colors.white, fontSize: 11),
      ),
    );
  }
}
