import 'package:flutter/material.dart';

class NewsHeadline extends StatelessWidget {
  const NewsHeadline({super.key});

  @override
  Widget build(BuildContext context) {
    return Column(
      crossAxisAlignment: CrossAxisAlignment.start,
      children: const [
        Text('Markets rally after rate decision', style: TextStyle(fontSize: 20)),
        SizedBox(height: 4),
        Text('Reuters · 12 min ago', style: TextStyle(color: Colors.grey)),
      ],
    );
  }
}
