import 'package:flutter/material.dart';

class CurrencyConverter extends StatefulWidget {
  const CurrencyConverter({super.key});

  @override
  State<CurrencyConverter> createState() => _CurrencyConverterState();
}

class _CurrencyConverterState extends State<CurrencyConverter> {
  static const _rates = {'USD': 1.0, 'EUR': 0.92, 'GBP': 0.79, 'JPY': 151.3};
  final _amountController = TextEditingController(text: '100');
  String _target = 'EUR';

  @override
  void dispose() {
    _amountController.dispose();
    super.dispose();
  }

  @override
  Widget build(BuildContext context) {
    final amount = double.tryParse(_amountController.text) ?? 0;
    final converted = amount * (_rates[_target] ?? 1);
    return Scaffold(
      appBar: AppBar(title: const Text('Converter')),
      body: Padding(
        padding: const EdgeInsets.all(20),
        child: Column(
          children: [
            TextField(
              controller: _amountController,
              keyboardType: TextInputType.number,
              decoration: const InputDecoration(labelText: 'Amount in USD'),
              onChanged: (_) => setState(() {}),
            ),
            const SizedBox(height: 16),
            DropdownButton<String>(
              value: _target,
              isExpanded: true,
              items: [
                for (final code in _rates.keys)
                  DropdownMenuItem(value: code, child: Text(code)),
              ],
              onChanged: (value) => setState(() => _target = value ?? 'EUR'),
            ),
            const SizedBox(height: 24),
            Text('${converted.toStringAsFixed(2)} $_target', style: const TextStyle(fontSize: 32)),
          ],
        ),
      ),
    );
  }
}
