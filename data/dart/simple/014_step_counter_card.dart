import 'package:flutter/material.dart';

class StepCounterCard extends StatelessWidget {
  const StepCounterCard({super.key});

  @override
  Widget build(BuildContext context) {
    return Card(
      elevation: 3,
      margin: const EdgeInsets.all(12),
      child: Padding(
        padding: const EdgeInsets.all(20),
        child: Row(
          children: const [
            Icon(Icons.directions_walk, size: 28),
            SizedBox(width: 12),
            Text('8,432 steps', style: TextStyle(fontSize: 24)),
          ],
        ),
      ),
    );
  }
}
