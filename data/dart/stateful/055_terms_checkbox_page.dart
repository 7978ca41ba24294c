import 'package:flutter/material.dart';

class TermsCheckboxPage extends StatefulWidget {
  const TermsCheckboxPage({super.key});

  @override
  State<TermsCheckboxPage> createState() => _TermsCheckboxPageState();
}

class _TermsCheckboxPageState extends State<TermsCheckboxPage> {
  bool _accepted = false;
  bool _newsletter = false;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Create account')),
      body: Padding(
        padding: const EdgeInsets.all(16),
        child: Column(
          children: [
            Row(
              children: [
                Checkbox(
                  value: _accepted,
                  onChanged: (v) => setState(() => _accepted = v ?? false),
                ),
                const Text('I accept the terms of service'),
              ],
            ),
            Row(
              children: [
                Checkbox(
                  value: _newsletter,
                  onChanged: (v) => setState(() => _newsletter = v ?? false),
                ),
                const Text('Send me the monthly newsletter'),
              ],
            ),
            const SizedBox(height: 24),
            ElevatedButton(
              onPressed: _accepted ? () => Navigator.pushNamed(context, '/welcome') : null,
              child: const Text('Create account'),
            ),
          ],
        ),
      ),
    );
  }
}
