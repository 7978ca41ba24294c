import 'package:flutter/material.dart';

/// A 2D money amount in cents, with operators.
///
/// ```dart
/// final total = Money(250) + Money(100);
/// ```
@immutable
class Money implements Comparable<Money> {
  const Money(this.cents) : assert(cents >= 0, 'cents must not be negative');

  /// Parses `"12.34"` into 1234 cents.
  factory Money.parse(String text) {
    final parts = text.split('.');
    final whole = int.parse(parts[0]);
    final frac = parts.length > 1 ? int.parse(parts[1].padRight(2, '0').substring(0, 2)) : 0;
    return Money(whole * 100 + frac);
  }

  const Money.zero() : this(0);

  final int cents;

  Money operator +(Money other) => Money(cents + other.cents);
  Money operator *(int factor) => Money(cents * factor);
  bool operator >(Money other) => cents > other.cents;

  @override
  int compareTo(Money other) => cents.compareTo(other.cents);

  @override
  bool operator ==(Object other) => other is Money && other.cents == cents;

  @override
  int get hashCode => cents.hashCode;

  @override
  String toString() => '${cents ~/ 100}.${(cents % 100).toString().padLeft(2, '0')}';
}

/* A block comment /* with a nested block */ that Dart allows. */
class TipCalculator extends StatelessWidget {
  const TipCalculator({super.key, this.bill = const Money(4250), this.people = 3});

  final Money bill;
  final int people;

  @Deprecated('Use tipFor instead')
  Money get tip => tipFor(15);

  Money tipFor(int percent) => Money(bill.cents * percent ~/ 100);

  @override
  Widget build(BuildContext context) {
    final total = bill + tipFor(18); // 18% tip
    return Column(
      children: [
        Text('Bill: $bill'),
        Text('Tip (18%): ${tipFor(18)}'),
        Text('Each: ${Money(total.cents ~/ people)}'),
        if (total > Money.parse('50')) const Text('Big night out!'),
      ],
    );
  }
}
