import 'package:flutter/material.dart';

class RatingPicker extends StatefulWidget {
  const RatingPicker({super.key, required this.onRated});

  final ValueChanged<int> onRated;

  @override
  State<RatingPicker> createState() => _RatingPickerState();
}

class _RatingPickerState extends State<RatingPicker> {
  int _stars = 0;

  @override
  Widget build(BuildContext context) {
    return Column(
      mainAxisSize: MainAxisSize.min,
      children: [
        const Text('How was your ride?', style: TextStyle(fontSize: 18)),
        Row(
          mainAxisSize: MainAxisSize.min,
          children: [
            for (var i = 1; i <= 5; i++)
              IconButton(
                icon: Icon(i <= _stars ? Icons.star : Icons.star_border, color: Colors.amber),
                onPressed: () {
                  setState(() => _stars = i);
                  widget.onRated(i);
                },
              ),
          ],
        ),
        if (_stars > 0) Text('You rated $_stars of 5'),
      ],
    );
  }
}
