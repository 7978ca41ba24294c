import 'package:flutter/material.dart';

class TransferMoneyScreen extends StatelessWidget {
  const TransferMoneyScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Send money')),
      body: Padding(
        padding: const EdgeInsets.all(20),
        child: Column(
          crossAxisAlignment: CrossAxisAlignment.start,
          children: [
            const Text('To', style: TextStyle(color: Colors.black54)),
            const ListTile(
              contentPadding: EdgeInsets.zero,
              leading: CircleAvatar(child: Text('DK')),
              title: Text('Daniel Kim'),
              subtitle: Text('IBAN DE89 3704 0044 0532 0130 00'),
            ),
            const SizedBox(height: 16),
            const TextField(
              keyboardType: TextInputType.numberWithOptions(decimal: true),
              style: TextStyle(fontSize: 36),
              decoration: InputDecoration(labelText: 'Amount', suffixText: 'EUR'),
            ),
            const SizedBox(height: 12),
            const TextField(
              decoration: InputDecoration(labelText: 'Reference', hintText: 'Rent June'),
            ),
            const Spacer(),
            SizedBox(
              width: double.infinity,
              height: 54,
              child: FilledButton(
                onPressed: () => Navigator.pushNamed(context, '/transfer/confirm'),
                child: const Text('Review transfer'),
              ),
            ),
          ],
        ),
      ),
    );
  }
}
