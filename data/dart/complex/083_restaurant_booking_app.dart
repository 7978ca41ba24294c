import 'package:flutter/material.dart';

void main() => runApp(const BookingApp());

class Restaurant {
  const Restaurant(this.name, this.cuisine, this.rating, this.priceLevel, this.slots);

  final String name;
  final String cuisine;
  final double rating;
  final int priceLevel;
  final List<String> slots;
}

class Reservation {
  const Reservation(this.restaurant, this.slot, this.guests);

  final Restaurant restaurant;
  final String slot;
  final int guests;
}

const restaurants = [
  Restaurant('Osteria Lupa', 'Italian', 4.7, 3, ['18:00', '19:30', '21:00']),
  Restaurant('Sakura Tei', 'Japanese', 4.5, 2, ['17:30', '20:00']),
  Restaurant('Taquería Sol', 'Mexican', 4.2, 1, ['12:00', '13:00', '19:00', '20:30']),
];

final List<Reservation> reservations = [];

class BookingApp extends StatelessWidget {
  const BookingApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'TableFor',
      theme: ThemeData(colorSchemeSeed: Colors.red.shade900),
      routes: {
        '/': (context) => const RestaurantsScreen(),
        '/reservations': (context) => const ReservationsScreen(),
      },
    );
  }
}

class RestaurantsScreen extends StatelessWidget {
  const RestaurantsScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Tonight'),
        actions: [
          IconButton(
            icon: const Icon(Icons.event_note),
            onPressed: () => Navigator.pushNamed(context, '/reservations'),
          ),
        ],
      ),
      body: ListView.separated(
        itemCount: restaurants.length,
        separatorBuilder: (_, __) => const Divider(height: 1),
        itemBuilder: (context, i) {
          final r = restaurants[i];
          return ListTile(
            title: Text(r.name),
            subtitle: Text('${r.cuisine} · ${'€' * r.priceLevel}'),
            trailing: Row(
              mainAxisSize: MainAxisSize.min,
              children: [const Icon(Icons.star, color: Colors.amber, size: 18), Text('${r.rating}')],
            ),
            onTap: () => Navigator.push(
              context,
              MaterialPageRoute(builder: (_) => BookScreen(restaurant: r)),
            ),
          );
        },
      ),
    );
  }
}

class BookScreen extends StatefulWidget {
  const BookScreen({super.key, required this.restaurant});

  final Restaurant restaurant;

  @override
  State<BookScreen> createState() => _BookScreenState();
}

class _BookScreenState extends State<BookScreen> {
  String? _slot;
  int _guests = 2;

  void _confirm() {
    final slot = _slot;
    if (slot == null) return;
    reservations.add(Reservation(widget.restaurant, slot, _guests));
    Navigator.pushNamedAndRemoveUntil(context, '/reservations', (route) => route.isFirst);
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: Text(widget.restaurant.name)),
      body: Padding(
        padding: const EdgeInsets.all(20),
        child: Column(
          crossAxisAlignment: CrossAxisAlignment.start,
          children: [
            const Text('Pick a time', style: TextStyle(fontSize: 18)),
            const SizedBox(height: 8),
            Wrap(
              spacing: 8,
              children: [
                for (final s in widget.restaurant.slots)
                  ChoiceChip(
                    label: Text(s),
                    selected: _slot == s,
                    onSelected: (on) => setState(() => _slot = on ? s : null),
                  ),
              ],
            ),
            const SizedBox(height: 24),
            Row(
              children: [
                const Text('Guests', style: TextStyle(fontSize: 18)),
                const Spacer(),
                IconButton(
                  icon: const Icon(Icons.remove),
                  onPressed: _guests > 1 ? () => setState(() => _guests--) : null,
                ),
                Text('$_guests', style: const TextStyle(fontSize: 18)),
                IconButton(
                  icon: const Icon(Icons.add),
                  onPressed: _guests < 8 ? () => setState(() => _guests++) : null,
                ),
              ],
            ),
            const Spacer(),
            SizedBox(
              width: double.infinity,
              child: FilledButton(
                onPressed: _slot == null ? null : _confirm,
                child: Text(_slot == null ? 'Choose a time' : 'Book $_slot for $_guests'),
              ),
            ),
          ],
        ),
      ),
    );
  }
}

class ReservationsScreen extends StatelessWidget {
  const ReservationsScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('My reservations')),
      body: reservations.isEmpty
          ? const Center(child: Text('No bookings yet'))
          : ListView(
              children: [
                for (final r in reservations)
                  ListTile(
                    leading: const Icon(Icons.restaurant_menu),
                    title: Text(r.restaurant.name),
                    subtitle: Text('${r.slot} · ${r.guests} guests'),
                  ),
              ],
            ),
    );
  }
}
