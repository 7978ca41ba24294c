import 'package:flutter/material.dart';

class MapPin extends StatelessWidget {
  const MapPin({super.key});

  @override
  Widget build(BuildContext context) {
    return const Stack(
      alignment: Alignment.center,
      children: [
        Icon(Icons.location_on, size: 48, color: Colors.redAccent),
        Positioned(top: 10, child: Text('A', style: TextStyle(color: Colors.white))),
      ],
    );
  }
}
