import 'dart:async';

import 'package:flutter/material.dart';

typedef Json = Map<String, dynamic>;
typedef PriceListener = void Function(String symbol, double price);

Stream<double> ticker(String symbol, {int ticks = 5}) async* {
  var price = 101.25;
  for (var i = 0; i < ticks; i++) {
    await Future<void>.delayed(const Duration(milliseconds: 500));
    price += i.isEven ? 0.75 : -0.5;
    yield price;
  }
}

Future<Json> fetchQuote(String symbol) async {
  await Future<void>.delayed(const Duration(seconds: 1));
  return {'symbol': symbol, 'open': 100.0, 'volume': 120400};
}

Future<int> countTicks(Stream<double> prices) async {
  var n = 0;
  await for (final _ in prices) {
    n++;
  }
  return n;
}

class StockTicker extends StatelessWidget {
  const StockTicker({super.key, required this.symbol, this.onPrice});

  final String symbol;
  final PriceListener? onPrice;

  @override
  Widget build(BuildContext context) {
    return Column(
      children: [
        FutureBuilder<Json>(
          future: fetchQuote(symbol),
          builder: (context, snapshot) {
            if (snapshot.connectionState != ConnectionState.done) {
              return const LinearProgressIndicator();
            }
            if (snapshot.hasError) return Text('Error: ${snapshot.error}');
            final quote = snapshot.data!;
            return Text('${quote['symbol']} opened at ${quote['open']}');
          },
        ),
        StreamBuilder<double>(
          stream: ticker(symbol),
          initialData: 101.25,
          builder: (context, snapshot) {
            final price = snapshot.data ?? 0;
            onPrice?.call(symbol, price);
            return Text(
              price.toStringAsFixed(2),
              style: TextStyle(fontSize: 40, color: price >= 101.25 ? Colors.green : Colors.red),
            );
          },
        ),
      ],
    );
  }
}
