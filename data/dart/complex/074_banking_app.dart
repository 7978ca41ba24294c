import 'package:flutter/material.dart';

void main() => runApp(const BankApp());

class Account {
  Account(this.name, this.iban, this.balance);

  final String name;
  final String iban;
  double balance;
}

class Transaction {
  const Transaction(this.label, this.amount, this.date);

  final String label;
  final double amount;
  final String date;

  bool get isIncome => amount > 0;
}

final accounts = [
  Account('Everyday', 'NL91 ABNA 0417 1643 00', 2310.42),
  Account('Savings', 'NL20 INGB 0001 2345 67', 15800.00),
];

const history = [
  Transaction('Albert Heijn', -43.18, '2024-04-29'),
  Transaction('Salary', 3120.00, '2024-04-25'),
  Transaction('NS Rail', -12.60, '2024-04-24'),
  Transaction('Netflix', -13.99, '2024-04-21'),
];

class BankApp extends StatelessWidget {
  const BankApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Tulip Bank',
      theme: ThemeData(colorSchemeSeed: Colors.orange),
      initialRoute: '/accounts',
      routes: {
        '/accounts': (context) => const AccountsScreen(),
        '/transfer': (context) => const TransferScreen(),
      },
    );
  }
}

class AccountsScreen extends StatelessWidget {
  const AccountsScreen({super.key});

  @override
  Widget build(BuildContext context) {
    final total = accounts.fold<double>(0, (s, a) => s + a.balance);
    return Scaffold(
      appBar: AppBar(title: const Text('Accounts')),
      body: ListView(
        padding: const EdgeInsets.all(16),
        children: [
          Text('Total €${total.toStringAsFixed(2)}', style: const TextStyle(fontSize: 28)),
          const SizedBox(height: 12),
          for (final account in accounts)
            Card(
              child: ListTile(
                title: Text(account.name),
                subtitle: Text(account.iban),
                trailing: Text('€${account.balance.toStringAsFixed(2)}'),
                onTap: () => Navigator.push(
                  context,
                  MaterialPageRoute(builder: (_) => AccountDetailScreen(account: account)),
                ),
              ),
            ),
        ],
      ),
      floatingActionButton: FloatingActionButton(
        onPressed: () => Navigator.pushNamed(context, '/transfer'),
        child: const Icon(Icons.swap_horiz),
      ),
    );
  }
}

class AccountDetailScreen extends StatelessWidget {
  const AccountDetailScreen({super.key, required this.account});

  final Account account;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: Text(account.name)),
      body: Column(
        children: [
          Container(
            width: double.infinity,
            padding: const EdgeInsets.all(24),
            color: Colors.orange.shade50,
            child: Text('€${account.balance.toStringAsFixed(2)}', style: const TextStyle(fontSize: 34)),
          ),
          Expanded(
            child: ListView.builder(
              itemCount: history.length,
              itemBuilder: (context, i) {
                final t = history[i];
                return ListTile(
                  leading: Icon(
                    t.isIncome ? Icons.arrow_downward : Icons.arrow_upward,
                    color: t.isIncome ? Colors.green : Colors.red,
                  ),
                  title: Text(t.label),
                  subtitle: Text(t.date),
                  trailing: Text(t.amount.toStringAsFixed(2)),
                );
              },
            ),
          ),
        ],
      ),
    );
  }
}

class TransferScreen extends StatefulWidget {
  const TransferScreen({super.key});

  @override
  State<TransferScreen> createState() => _TransferScreenState();
}

class _TransferScreenState extends State<TransferScreen> {
  Account _from = accounts[0];
  Account _to = accounts[1];
  final _amount = TextEditingController();
  String? _error;

  void _transfer() {
    final value = double.tryParse(_amount.text.replaceAll(',', '.'));
    if (value == null || value <= 0) {
      setState(() => _error = 'Enter a positive amount');
      return;
    }
    if (value > _from.balance || identical(_from, _to)) {
      setState(() => _error = 'Transfer not possible');
      return;
    }
    setState(() {
      _from.balance -= value;
      _to.balance += value;
      _error = null;
    });
    Navigator.pop(context);
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Move money')),
      body: Padding(
        padding: const EdgeInsets.all(20),
        child: Column(
          children: [
            DropdownButtonFormField<Account>(
              value: _from,
              decoration: const InputDecoration(labelText: 'From'),
              items: [for (final a in accounts) DropdownMenuItem(value: a, child: Text(a.name))],
              onChanged: (a) => setState(() => _from = a ?? _from),
            ),
            DropdownButtonFormField<Account>(
              value: _to,
              decoration: const InputDecoration(labelText: 'To'),
              items: [for (final a in accounts) DropdownMenuItem(value: a, child: Text(a.name))],
              onChanged: (a) => setState(() => _to = a ?? _to),
            ),
            TextField(
              controller: _amount,
              keyboardType: TextInputType.number,
              decoration: InputDecoration(labelText: 'Amount (€)', errorText: _error),
            ),
            const SizedBox(height: 24),
            ElevatedButton(onPressed: _transfer, child: const Text('Transfer')),
          ],
        ),
      ),
    );
  }
}
