import 'package:flutter/material.dart';

class SupportFaqScreen extends StatelessWidget {
  const SupportFaqScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Help centre')),
      body: ListView(
        children: [
          const ExpansionTile(
            title: Text('How do I reset my PIN?'),
            children: [
              Padding(
                padding: EdgeInsets.all(16),
                child: Text('Open Security, tap "Change PIN" and confirm with your fingerprint.'),
              ),
            ],
          ),
          const ExpansionTile(
            title: Text('When will my refund arrive?'),
            children: [
              Padding(
                padding: EdgeInsets.all(16),
                child: Text('Refunds are processed within 5 business days.'),
              ),
            ],
          ),
          const ExpansionTile(
            title: Text('Can I freeze my card?'),
            children: [
              Padding(
                padding: EdgeInsets.all(16),
                child: Text('Yes. Go to Cards and switch on "Freeze card".'),
              ),
            ],
          ),
          ListTile(
            leading: const Icon(Icons.chat_bubble_outline),
            title: const Text('Still need help? Chat with us'),
            onTap: () => Navigator.pushNamed(context, '/support/chat'),
          ),
        ],
      ),
    );
  }
}
