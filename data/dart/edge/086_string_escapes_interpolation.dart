import 'package:flutter/material.dart';

class Invoice {
  const Invoice(this.customer, this.total, this.currency);

  final Customer customer;
  final double total;
  final String currency;
}

class Customer {
  const Customer(this.name, this.email);

  final String name;
  final String email;
}

class InvoiceHeader extends StatelessWidget {
  const InvoiceHeader({super.key, required this.invoice});

  final Invoice invoice;

  @override
  Widget build(BuildContext context) {
    final tags = {'vip': true, 'late': false};
    return Column(
      crossAxisAlignment: CrossAxisAlignment.start,
      children: [
        Text('Bill to: ${invoice.customer.name}'),
        Text('Contact: <${invoice.customer.email}>'),
        Text('Total: \$${invoice.total.toStringAsFixed(2)} ${invoice.currency}'),
        Text('Price literal: \$9.99 (not interpolated: \${total})'),
        Text('It\'s "paid" — thanks, ${invoice.customer.name.split(' ').first}!'),
        Text("Say \"hi\" to ${invoice.customer.name}'s team"),
        Text('Line one\nLine two\tTabbed\\Backslash'),
        Text('Unicode: \u00e9 \u{1F4B8} \x41'),
        Text('VIP: ${tags['vip']} / late: ${tags["late"]}'),
        Text('Adjacent ' 'string ' "literals"),
        Text('${invoice.total > 100 ? 'large' : 'small'} order'),
        Text('Empty: "" and \'\''),
        Text('$invoice'.isEmpty ? '' : 'id-${invoice.hashCode % 1000}'),
      ],
    );
  }
}
