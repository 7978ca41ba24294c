import 'package:flutter/material.dart';

class BankAccountScreen extends StatelessWidget {
  const BankAccountScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Checking ••• 3921')),
      body: Column(
        children: [
          Container(
            width: double.infinity,
            margin: const EdgeInsets.all(16),
            padding: const EdgeInsets.all(24),
            decoration: BoxDecoration(
              gradient: const LinearGradient(colors: [Colors.indigo, Colors.blue]),
              borderRadius: BorderRadius.circular(20),
            ),
            child: Column(
              crossAxisAlignment: CrossAxisAlignment.start,
              children: const [
                Text('Available balance', style: TextStyle(color: Colors.white70)),
                SizedBox(height: 8),
                Text('€12,480.55', style: TextStyle(color: Colors.white, fontSize: 32)),
              ],
            ),
          ),
          const Padding(
            padding: EdgeInsets.symmetric(horizontal: 16),
            child: Align(
              alignment: Alignment.centerLeft,
              child: Text('Recent transactions', style: TextStyle(fontSize: 16)),
            ),
          ),
          Expanded(
            child: ListView(
              children: const [
                ListTile(title: Text('Grocery Mart'), trailing: Text('-€54.20')),
                ListTile(title: Text('Salary ACME GmbH'), trailing: Text('+€3,250.00')),
                ListTile(title: Text('Electric Co.'), trailing: Text('-€81.13')),
              ],
            ),
          ),
        ],
      ),
    );
  }
}
