import 'package:flutter/material.dart';

class OnboardingPage extends StatelessWidget {
  const OnboardingPage({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      body: SafeArea(
        child: Padding(
          padding: const EdgeInsets.symmetric(horizontal: 28, vertical: 24),
          child: Column(
            children: [
              Align(
                alignment: Alignment.topRight,
                child: TextButton(
                  onPressed: () => Navigator.pushReplacementNamed(context, '/home'),
                  child: const Text('Skip'),
                ),
              ),
              const Spacer(),
              const Icon(Icons.eco, size: 120, color: Colors.green),
              const SizedBox(height: 32),
              const Text(
                'Track your carbon footprint',
                textAlign: TextAlign.center,
                style: TextStyle(fontSize: 26, fontWeight: FontWeight.bold),
              ),
              const SizedBox(height: 12),
              const Text(
                'Log trips and meals to see your weekly impact.',
                textAlign: TextAlign.center,
              ),
              const Spacer(),
              Row(
                mainAxisAlignment: MainAxisAlignment.center,
                children: [
                  for (var i = 0; i < 3; i++)
                    Container(
                      margin: const EdgeInsets.all(4),
                      width: i == 0 ? 20 : 8,
                      height: 8,
                      decoration: BoxDecoration(
                        color: i == 0 ? Colors.green : Colors.green.shade100,
                        borderRadius: BorderRadius.circular(4),
                      ),
                    ),
                ],
              ),
              const SizedBox(height: 24),
              ElevatedButton(
                onPressed: () => Navigator.pushNamed(context, '/onboarding/2'),
                child: const Text('Next'),
              ),
            ],
          ),
        ),
      ),
    );
  }
}
