import 'package:flutter/material.dart';

class FlightBookingScreen extends StatelessWidget {
  const FlightBookingScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Book a flight')),
      body: Padding(
        padding: const EdgeInsets.all(16),
        child: Column(
          children: [
            Card(
              child: Padding(
                padding: const EdgeInsets.all(12),
                child: Column(
                  children: const [
                    TextField(
                      decoration: InputDecoration(labelText: 'From', prefixIcon: Icon(Icons.flight_takeoff)),
                    ),
                    TextField(
                      decoration: InputDecoration(labelText: 'To', prefixIcon: Icon(Icons.flight_land)),
                    ),
                    TextField(
                      decoration: InputDecoration(labelText: 'Departure date', prefixIcon: Icon(Icons.event)),
                    ),
                  ],
                ),
              ),
            ),
            const SizedBox(height: 8),
            Wrap(
              spacing: 8,
              children: const [
                Chip(label: Text('Economy')),
                Chip(label: Text('1 adult')),
                Chip(label: Text('Direct only')),
              ],
            ),
            const Spacer(),
            ElevatedButton(
              onPressed: () => Navigator.pushNamed(context, '/flights/results'),
              style: ElevatedButton.styleFrom(minimumSize: const Size.fromHeight(50)),
              child: const Text('Search flights'),
            ),
          ],
        ),
      ),
    );
  }
}
