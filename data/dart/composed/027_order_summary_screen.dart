import 'package:flutter/material.dart';

class OrderSummaryScreen extends StatelessWidget {
  const OrderSummaryScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Order summary')),
      body: Padding(
        padding: const EdgeInsets.all(16),
        child: Column(
          children: [
            Card(
              child: Column(
                children: const [
                  ListTile(title: Text('Espresso beans 1kg'), trailing: Text('\$24.90')),
                  ListTile(title: Text('Milk frother'), trailing: Text('\$39.00')),
                  ListTile(title: Text('Shipping'), trailing: Text('\$4.50')),
                ],
              ),
            ),
            const SizedBox(height: 16),
            Row(
              mainAxisAlignment: MainAxisAlignment.spaceBetween,
              children: const [
                Text('Total', style: TextStyle(fontSize: 20, fontWeight: FontWeight.bold)),
                Text('\$68.40', style: TextStyle(fontSize: 20, fontWeight: FontWeight.bold)),
              ],
            ),
            const Spacer(),
            SizedBox(
              width: double.infinity,
              height: 52,
              child: ElevatedButton(
                onPressed: () => Navigator.pushNamed(context, '/checkout/payment'),
                child: const Text('Proceed to payment'),
              ),
            ),
          ],
        ),
      ),
    );
  }
}
