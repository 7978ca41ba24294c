import 'package:flutter/material.dart';

class CheckoutAddressForm extends StatelessWidget {
  const CheckoutAddressForm({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Shipping address')),
      body: SingleChildScrollView(
        padding: const EdgeInsets.all(20),
        child: Column(
          children: [
            const TextField(decoration: InputDecoration(labelText: 'Street and number')),
            const SizedBox(height: 10),
            Row(
              children: const [
                Expanded(
                  flex: 2,
                  child: TextField(decoration: InputDecoration(labelText: 'City')),
                ),
                SizedBox(width: 10),
                Expanded(
                  child: TextField(
                    decoration: InputDecoration(labelText: 'ZIP'),
                    keyboardType: TextInputType.number,
                  ),
                ),
              ],
            ),
            const SizedBox(height: 10),
            const TextField(decoration: InputDecoration(labelText: 'Country')),
            const SizedBox(height: 10),
            const TextField(
              decoration: InputDecoration(labelText: 'Phone', prefixText: '+1 '),
              keyboardType: TextInputType.phone,
            ),
            const SizedBox(height: 28),
            SizedBox(
              width: double.infinity,
              child: ElevatedButton(
                style: ElevatedButton.styleFrom(backgroundColor: Colors.black, foregroundColor: Colors.white),
                onPressed: () => Navigator.pushNamed(context, '/checkout/review'),
                child: const Text('Continue'),
              ),
            ),
          ],
        ),
      ),
    );
  }
}
