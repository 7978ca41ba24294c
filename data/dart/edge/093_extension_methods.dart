import 'package:flutter/material.dart';

extension PriceFormat on num {
  String get euros => '€${toStringAsFixed(2)}';

  String percentOf(num total) => '${(this / total * 100).round()}%';
}

extension Capitalize on String {
  String capitalize() => isEmpty ? this : '${this[0].toUpperCase()}${substring(1)}';
}

extension NullableText on String? {
  String orDash() => this ?? '—';
}

extension ListSum<T extends num> on List<T> {
  num get sum => fold<num>(0, (a, b) => a + b);
}

extension on BuildContext {
  double get screenWidth => MediaQuery.of(this).size.width;
}

extension WidgetPadding on Widget {
  Widget padded([double value = 8]) => Padding(padding: EdgeInsets.all(value), child: this);
}

class BudgetSummary extends StatelessWidget {
  const BudgetSummary({super.key, this.note});

  final String? note;

  @override
  Widget build(BuildContext context) {
    final expenses = [12.5, 40, 7.25];
    final total = expenses.sum;
    return Column(
      children: [
        Text('groceries'.capitalize()).padded(),
        Text('Spent ${total.euros} of ${250.euros}').padded(12),
        Text('Used ${total.percentOf(250)}'),
        Text(note.orDash()),
        Text('Width: ${context.screenWidth.round()} px'),
        Text(PriceFormat(3).euros),
      ],
    );
  }
}
