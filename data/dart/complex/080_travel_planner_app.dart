import 'package:flutter/material.dart';

void main() => runApp(const TravelApp());

class Place {
  const Place({required this.name, required this.country, required this.lat, required this.lng});

  final String name;
  final String country;
  final double lat;
  final double lng;
}

class Trip {
  Trip(this.title, this.stops);

  final String title;
  final List<Place> stops;
}

final trips = <Trip>[
  Trip('Balkan loop', [
    const Place(name: 'Ljubljana', country: 'SI', lat: 46.05, lng: 14.51),
    const Place(name: 'Zagreb', country: 'HR', lat: 45.81, lng: 15.98),
    const Place(name: 'Sarajevo', country: 'BA', lat: 43.86, lng: 18.41),
  ]),
  Trip('Andes week', [
    const Place(name: 'Cusco', country: 'PE', lat: -13.53, lng: -71.97),
  ]),
];

class TravelApp extends StatelessWidget {
  const TravelApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Wayfarer',
      theme: ThemeData(colorSchemeSeed: Colors.cyan),
      initialRoute: '/trips',
      routes: {
        '/trips': (context) => const TripsScreen(),
        '/about': (context) => const AboutScreen(),
      },
    );
  }
}

class TripsScreen extends StatefulWidget {
  const TripsScreen({super.key});

  @override
  State<TripsScreen> createState() => _TripsScreenState();
}

class _TripsScreenState extends State<TripsScreen> {
  final _newTrip = TextEditingController();

  @override
  void dispose() {
    _newTrip.dispose();
    super.dispose();
  }

  void _addTrip() {
    if (_newTrip.text.isNotEmpty) {
      setState(() {
        trips.add(Trip(_newTrip.text, []));
        _newTrip.clear();
      });
    }
  }

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('My trips'),
        actions: [
          IconButton(
            icon: const Icon(Icons.info_outline),
            onPressed: () => Navigator.pushNamed(context, '/about'),
          ),
        ],
      ),
      body: Column(
        children: [
          Padding(
            padding: const EdgeInsets.all(12),
            child: Row(
              children: [
                Expanded(
                  child: TextField(
                    controller: _newTrip,
                    decoration: const InputDecoration(labelText: 'New trip name'),
                  ),
                ),
                IconButton(icon: const Icon(Icons.add_location_alt), onPressed: _addTrip),
              ],
            ),
          ),
          Expanded(
            child: ListView(
              children: [
                for (final trip in trips)
                  Card(
                    margin: const EdgeInsets.symmetric(horizontal: 12, vertical: 6),
                    child: ListTile(
                      title: Text(trip.title),
                      subtitle: Text(trip.stops.isEmpty
                          ? 'No stops yet'
                          : trip.stops.map((p) => p.name).join(' → ')),
                      trailing: Text('${trip.stops.length} stops'),
                      onTap: () => Navigator.push(
                        context,
                        MaterialPageRoute(builder: (_) => TripMapScreen(trip: trip)),
                      ),
                    ),
                  ),
              ],
            ),
          ),
        ],
      ),
    );
  }
}

class TripMapScreen extends StatefulWidget {
  const TripMapScreen({super.key, required this.trip});

  final Trip trip;

  @override
  State<TripMapScreen> createState() => _TripMapScreenState();
}

class _TripMapScreenState extends State<TripMapScreen> {
  int? _selected;

  @override
  Widget build(BuildContext context) {
    final stops = widget.trip.stops;
    return Scaffold(
      appBar: AppBar(title: Text(widget.trip.title)),
      body: Stack(
        children: [
          Positioned.fill(
            child: Image.network('https://maps.example.com/static?zoom=5&size=800x800', fit: BoxFit.cover),
          ),
          Align(
            alignment: Alignment.bottomCenter,
            child: SizedBox(
              height: 120,
              child: ListView.builder(
                scrollDirection: Axis.horizontal,
                itemCount: stops.length,
                itemBuilder: (context, i) => GestureDetector(
                  onTap: () => setState(() => _selected = i),
                  child: Container(
                    width: 150,
                    margin: const EdgeInsets.all(8),
                    padding: const EdgeInsets.all(10),
                    decoration: BoxDecoration(
                      color: _selected == i ? Colors.cyan.shade100 : Colors.white,
                      borderRadius: BorderRadius.circular(12),
                      boxShadow: const [BoxShadow(blurRadius: 6, color: Colors.black26)],
                    ),
                    child: Column(
                      crossAxisAlignment: CrossAxisAlignment.start,
                      children: [
                        Text(stops[i].name, style: const TextStyle(fontWeight: FontWeight.bold)),
                        Text(stops[i].country),
                        Text('${stops[i].lat.toStringAsFixed(2)}, ${stops[i].lng.toStringAsFixed(2)}'),
                      ],
                    ),
                  ),
                ),
              ),
            ),
          ),
        ],
      ),
    );
  }
}

class AboutScreen extends StatelessWidget {
  const AboutScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('About Wayfarer')),
      body: const Padding(
        padding: EdgeInsets.all(24),
        child: Text('Wayfarer 1.8.0 — plan trips offline. Map data © Example Maps.'),
      ),
    );
  }
}
