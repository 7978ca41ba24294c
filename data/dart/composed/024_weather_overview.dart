import 'package:flutter/material.dart';

class WeatherOverview extends StatelessWidget {
  const WeatherOverview({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      backgroundColor: Colors.lightBlue.shade50,
      appBar: AppBar(
        title: const Text('Lisbon'),
        centerTitle: true,
        elevation: 0,
      ),
      body: Center(
        child: Column(
          mainAxisAlignment: MainAxisAlignment.center,
          children: [
            const Icon(Icons.wb_cloudy, size: 96, color: Colors.blueGrey),
            const SizedBox(height: 12),
            const Text('19°', style: TextStyle(fontSize: 64, fontWeight: FontWeight.w300)),
            const Text('Partly cloudy', style: TextStyle(fontSize: 18)),
            const SizedBox(height: 32),
            Row(
              mainAxisAlignment: MainAxisAlignment.spaceAround,
              children: const [
                Column(children: [Text('Wind'), Text('14 km/h')]),
                Column(children: [Text('Humidity'), Text('72%')]),
                Column(children: [Text('UV'), Text('3')]),
              ],
            ),
          ],
        ),
      ),
    );
  }
}
