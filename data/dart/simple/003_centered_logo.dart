import 'package:flutter/material.dart';

class CenteredLogo extends StatelessWidget {
  const CenteredLogo({super.key});

  @override
  Widget build(BuildContext context) {
    return Center(
      child: Image.network(
        'https://cdn.example.com/brand/logo.png',
        width: 120,
        height: 48,
      ),
    );
  }
}
