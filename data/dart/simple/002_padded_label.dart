import 'package:flutter/material.dart';

class PaddedLabel extends StatelessWidget {
  const PaddedLabel({super.key});

  @override
  Widget build(BuildContext context) {
    return Padding(
      padding: const EdgeInsets.all(16),
      child: Text(
        'Order #4821 shipped',
        style: TextStyle(color: Colors.grey.shade700, fontSize: 14),
      ),
    );
  }
}
