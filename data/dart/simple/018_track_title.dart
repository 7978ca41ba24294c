import 'package:flutter/material.dart';

class TrackTitle extends StatelessWidget {
  const TrackTitle({super.key, required this.title, required this.artist});

  final String title;
  final String artist;

  @override
  Widget build(BuildContext context) {
    return Text(
      '$title — $artist',
      maxLines: 1,
      overflow: TextOverflow.ellipsis,
      style: const TextStyle(fontSize: 15, letterSpacing: 0.2),
    );
  }
}
