import 'package:flutter/material.dart';

class PricingPlansScreen extends StatelessWidget {
  const PricingPlansScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Choose a plan')),
      body: ListView(
        padding: const EdgeInsets.all(16),
        children: [
          _plan(context, 'Basic', '€0', 'Up to 3 projects', Colors.grey.shade200),
          const SizedBox(height: 12),
          _plan(context, 'Pro', '€9', 'Unlimited projects', Colors.blue.shade100),
          const SizedBox(height: 12),
          _plan(context, 'Team', '€29', '10 seats included', Colors.green.shade100),
        ],
      ),
    );
  }

  Widget _plan(BuildContext context, String name, String price, String perk, Color tint) {
    return Card(
      color: tint,
      shape: RoundedRectangleBorder(borderRadius: BorderRadius.circular(18)),
      child: Padding(
        padding: const EdgeInsets.all(20),
        child: Column(
          crossAxisAlignment: CrossAxisAlignment.start,
          children: [
            Text(name, style: const TextStyle(fontSize: 20, fontWeight: FontWeight.bold)),
            Text('$price / month', style: const TextStyle(fontSize: 28)),
            const SizedBox(height: 6),
            Text(perk),
            Align(
              alignment: Alignment.centerRight,
              child: TextButton(
                onPressed: () => Navigator.pushNamed(context, '/subscribe', arguments: name),
                child: const Text('Select'),
              ),
            ),
          ],
        ),
      ),
    );
  }
}
