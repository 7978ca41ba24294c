import 'package:flutter/material.dart';

class EventDetailScreen extends StatelessWidget {
  const EventDetailScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Event')),
      body: ListView(
        children: [
          Image.network('https://events.example.com/jazz-night.jpg', height: 200, fit: BoxFit.cover),
          const Padding(
            padding: EdgeInsets.fromLTRB(16, 16, 16, 4),
            child: Text('Jazz Night at the Harbour', style: TextStyle(fontSize: 24)),
          ),
          const ListTile(
            leading: Icon(Icons.calendar_today),
            title: Text('Saturday, 14 June'),
            subtitle: Text('20:00 – 23:30'),
          ),
          const ListTile(
            leading: Icon(Icons.place),
            title: Text('Pier 7 Pavilion'),
            subtitle: Text('Harbour Road 12, Gdańsk'),
          ),
          const Padding(
            padding: EdgeInsets.all(16),
            child: Text(
              'An evening of live jazz with the Baltic Quartet and guests. Food trucks open from 19:00.',
              style: TextStyle(height: 1.4),
            ),
          ),
          Padding(
            padding: const EdgeInsets.symmetric(horizontal: 16),
            child: ElevatedButton.icon(
              onPressed: () => Navigator.pushNamed(context, '/tickets'),
              icon: const Icon(Icons.confirmation_number),
              label: const Text('Get tickets · €18'),
            ),
          ),
        ],
      ),
    );
  }
}
