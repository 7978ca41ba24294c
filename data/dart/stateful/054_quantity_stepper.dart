import 'package:flutter/material.dart';

class QuantityStepper extends StatefulWidget {
  const QuantityStepper({super.key, this.max = 10});

  final int max;

  @override
  State<QuantityStepper> createState() => _QuantityStepperState();
}

class _QuantityStepperState extends State<QuantityStepper> {
  int _quantity = 1;

  @override
  Widget build(BuildContext context) {
    return Row(
      mainAxisSize: MainAxisSize.min,
      children: [
        IconButton(
          icon: const Icon(Icons.remove_circle_outline),
          onPressed: _quantity > 1 ? () => setState(() => _quantity--) : null,
        ),
        Text('$_quantity', style: const TextStyle(fontSize: 20)),
        IconButton(
          icon: const Icon(Icons.add_circle_outline),
          onPressed: _quantity < widget.max ? () => setState(() => _quantity++) : null,
        ),
      ],
    );
  }
}
