import 'package:flutter/material.dart';

void main() => runApp(const WeatherApp());

class Forecast {
  const Forecast({required this.day, required this.high, required this.low, required this.condition});

  final String day;
  final int high;
  final int low;
  final String condition;
}

const forecasts = {
  'Reykjavík': [
    Forecast(day: 'Mon', high: 7, low: 2, condition: 'rain'),
    Forecast(day: 'Tue', high: 9, low: 3, condition: 'cloudy'),
    Forecast(day: 'Wed', high: 11, low: 4, condition: 'sunny'),
  ],
  'Marrakesh': [
    Forecast(day: 'Mon', high: 31, low: 18, condition: 'sunny'),
    Forecast(day: 'Tue', high: 33, low: 19, condition: 'sunny'),
    Forecast(day: 'Wed', high: 29, low: 17, condition: 'cloudy'),
  ],
};

IconData conditionIcon(String condition) {
  if (condition == 'rain') return Icons.water_drop;
  if (condition == 'cloudy') return Icons.cloud;
  return Icons.wb_sunny;
}

class WeatherApp extends StatelessWidget {
  const WeatherApp({super.key});

  @override
  Widget build(BuildContext context) {
    return MaterialApp(
      title: 'Skyline',
      debugShowCheckedModeBanner: false,
      home: const CityListScreen(),
    );
  }
}

class CityListScreen extends StatefulWidget {
  const CityListScreen({super.key});

  @override
  State<CityListScreen> createState() => _CityListScreenState();
}

class _CityListScreenState extends State<CityListScreen> {
  bool _celsius = true;

  String _format(int c) => _celsius ? '$c°C' : '${(c * 9 / 5 + 32).round()}°F';

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Skyline'),
        actions: [
          TextButton(
            onPressed: () => setState(() => _celsius = !_celsius),
            child: Text(_celsius ? '°C' : '°F', style: const TextStyle(fontSize: 18)),
          ),
        ],
      ),
      body: ListView(
        children: [
          for (final city in forecasts.keys)
            ListTile(
              leading: Icon(conditionIcon(forecasts[city]!.first.condition), size: 36),
              title: Text(city, style: const TextStyle(fontSize: 20)),
              subtitle: Text('Today ${_format(forecasts[city]!.first.high)}'),
              trailing: const Icon(Icons.chevron_right),
              onTap: () => Navigator.push(
                context,
                MaterialPageRoute(
                  builder: (context) => ForecastScreen(city: city, format: _format),
                ),
              ),
            ),
        ],
      ),
    );
  }
}

class ForecastScreen extends StatelessWidget {
  const ForecastScreen({super.key, required this.city, required this.format});

  final String city;
  final String Function(int) format;

  @override
  Widget build(BuildContext context) {
    final days = forecasts[city] ?? const <Forecast>[];
    return Scaffold(
      appBar: AppBar(title: Text(city)),
      body: Column(
        children: [
          const SizedBox(height: 16),
          if (days.isNotEmpty) ...[
            Icon(conditionIcon(days.first.condition), size: 100, color: Colors.amber),
            Text(format(days.first.high), style: const TextStyle(fontSize: 56)),
            Text(days.first.condition, style: const TextStyle(fontSize: 18)),
          ],
          const Divider(height: 32),
          Expanded(
            child: ListView.separated(
              itemCount: days.length,
              separatorBuilder: (_, __) => const Divider(indent: 16, endIndent: 16),
              itemBuilder: (context, i) => Padding(
                padding: const EdgeInsets.symmetric(horizontal: 24, vertical: 8),
                child: Row(
                  children: [
                    SizedBox(width: 60, child: Text(days[i].day)),
                    Icon(conditionIcon(days[i].condition)),
                    const Spacer(),
                    Text(format(days[i].low), style: const TextStyle(color: Colors.blueGrey)),
                    const SizedBox(width: 16),
                    Text(format(days[i].high), style: const TextStyle(fontWeight: FontWeight.bold)),
                  ],
                ),
              ),
            ),
          ),
          Padding(
            padding: const EdgeInsets.all(16),
            child: OutlinedButton.icon(
              onPressed: () => Navigator.push(
                context,
                MaterialPageRoute(builder: (_) => RadarScreen(city: city)),
              ),
              icon: const Icon(Icons.radar),
              label: const Text('Open radar'),
            ),
          ),
        ],
      ),
    );
  }
}

class RadarScreen extends StatelessWidget {
  const RadarScreen({super.key, required this.city});

  final String city;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: Text('Radar · $city')),
      body: InteractiveViewer(
        maxScale: 4,
        child: Image.network('https://radar.example.com/${Uri.encodeComponent(city)}/latest.png'),
      ),
    );
  }
}
