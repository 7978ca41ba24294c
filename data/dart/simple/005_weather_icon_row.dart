import 'package:flutter/material.dart';

class WeatherIconRow extends StatelessWidget {
  const WeatherIconRow({super.key});

  @override
  Widget build(BuildContext context) {
    return Row(
      mainAxisAlignment: MainAxisAlignment.spaceEvenly,
      children: const [
        Icon(Icons.wb_sunny, color: Colors.amber, size: 32),
        Icon(Icons.cloud, color: Colors.blueGrey, size: 32),
        Icon(Icons.umbrella, color: Colors.indigo, size: 32),
      ],
    );
  }
}
