import 'package:flutter/material.dart';

class HotelCardList extends StatelessWidget {
  const HotelCardList({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Stays in Kyoto')),
      body: ListView(
        padding: const EdgeInsets.all(12),
        children: [
          _hotel(context, 'Ryokan Hoshino', 4.8, 210),
          _hotel(context, 'Gion Garden Inn', 4.5, 145),
          _hotel(context, 'Arashiyama Lodge', 4.6, 178),
        ],
      ),
    );
  }

  Widget _hotel(BuildContext context, String name, double rating, int price) {
    return Card(
      clipBehavior: Clip.antiAlias,
      child: InkWell(
        onTap: () => Navigator.pushNamed(context, '/hotel', arguments: name),
        child: Padding(
          padding: const EdgeInsets.all(14),
          child: Row(
            children: [
              const Icon(Icons.hotel, size: 40, color: Colors.brown),
              const SizedBox(width: 14),
              Expanded(
                child: Column(
                  crossAxisAlignment: CrossAxisAlignment.start,
                  children: [
                    Text(name, style: const TextStyle(fontSize: 17)),
                    Text('★ $rating'),
                  ],
                ),
              ),
              Text('\$$price/night', style: const TextStyle(fontWeight: FontWeight.bold)),
            ],
          ),
        ),
      ),
    );
  }
}
