import 'package:flutter/material.dart';

class GreetingText extends StatelessWidget {
  const GreetingText({super.key});

  @override
  Widget build(BuildContext context) {
    return const Text(
      'Good morning, Alice',
      style: TextStyle(fontSize: 22, fontWeight: FontWeight.bold),
    );
  }
}
