import 'package:flutter/material.dart';

class PromoBanner extends StatelessWidget {
  const PromoBanner({super.key});

  @override
  Widget build(BuildContext context) {
    return Row(
      children: [
        Expanded(
          child: Container(
            height: 64,
            color: Colors.purple.shade100,
            alignment: Alignment.center,
            child: const Text('20% off all headphones'),
          ),
        ),
      ],
    );
  }
}
