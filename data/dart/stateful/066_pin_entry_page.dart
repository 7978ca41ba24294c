import 'package:flutter/material.dart';

class PinEntryPage extends StatefulWidget {
  const PinEntryPage({super.key});

  @override
  State<PinEntryPage> createState() => _PinEntryPageState();
}

class _PinEntryPageState extends State<PinEntryPage> {
  String _pin = '';
  int _attempts = 0;

  void _press(String digit) {
    if (_pin.length >= 4) return;
    setState(() => _pin += digit);
    if (_pin.length == 4) {
      if (_pin == '2580') {
        Navigator.pushReplacementNamed(context, '/wallet');
      } else {
        setState(() {
          _attempts++;
          _pin = '';
        });
      }
    }
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      body: Column(
        mainAxisAlignment: MainAxisAlignment.center,
        children: [
          Text('Enter PIN', style: Theme.of(context).textTheme.headlineSmall),
          const SizedBox(height: 16),
          Text('•' * _pin.length, style: const TextStyle(fontSize: 40, letterSpacing: 12)),
          if (_attempts > 0)
            Text('Wrong PIN ($_attempts)', style: const TextStyle(color: Colors.red)),
          const SizedBox(height: 24),
          Wrap(
            spacing: 16,
            runSpacing: 16,
            alignment: WrapAlignment.center,
            children: [
              for (final d in ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'])
                SizedBox(
                  width: 72,
                  height: 72,
                  child: OutlinedButton(onPressed: () => _press(d), child: Text(d)),
                ),
            ],
          ),
        ],
      ),
    );
  }
}
