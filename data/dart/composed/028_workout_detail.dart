import 'package:flutter/material.dart';

class WorkoutDetail extends StatelessWidget {
  const WorkoutDetail({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Leg Day'),
        backgroundColor: Colors.deepPurple,
      ),
      body: ListView(
        padding: const EdgeInsets.symmetric(horizontal: 16, vertical: 12),
        children: [
          Container(
            height: 160,
            decoration: BoxDecoration(
              color: Colors.deepPurple.shade100,
              borderRadius: BorderRadius.circular(16),
            ),
            child: const Center(
              child: Icon(Icons.fitness_center, size: 72, color: Colors.deepPurple),
            ),
          ),
          const SizedBox(height: 20),
          const Text('Exercises', style: TextStyle(fontSize: 18, fontWeight: FontWeight.w600)),
          const ListTile(title: Text('Back squat'), subtitle: Text('5 × 5 @ 80 kg')),
          const ListTile(title: Text('Romanian deadlift'), subtitle: Text('3 × 10 @ 60 kg')),
          const ListTile(title: Text('Walking lunges'), subtitle: Text('3 × 12 each leg')),
          const ListTile(title: Text('Calf raises'), subtitle: Text('4 × 15')),
          const SizedBox(height: 12),
          OutlinedButton.icon(
            onPressed: () => Navigator.pushNamed(context, '/workout/start'),
            icon: const Icon(Icons.play_arrow),
            label: const Text('Start workout'),
          ),
        ],
      ),
    );
  }
}
