import 'package:flutter/material.dart';

class FitnessStatsScreen extends StatelessWidget {
  const FitnessStatsScreen({super.key});

  @override
  Widget build(BuildContext context) {
    return DefaultTabController(
      length: 3,
      child: Scaffold(
        appBar: AppBar(
          title: const Text('Activity'),
          bottom: const TabBar(
            tabs: [
              Tab(text: 'Day'),
              Tab(text: 'Week'),
              Tab(text: 'Month'),
            ],
          ),
        ),
        body: const TabBarView(
          children: [
            Center(child: Text('6,210 steps today', style: TextStyle(fontSize: 22))),
            Center(child: Text('41,870 steps this week', style: TextStyle(fontSize: 22))),
            Center(child: Text('172,400 steps this month', style: TextStyle(fontSize: 22))),
          ],
        ),
        bottomNavigationBar: BottomNavigationBar(
          currentIndex: 1,
          items: const [
            BottomNavigationBarItem(icon: Icon(Icons.home), label: 'Home'),
            BottomNavigationBarItem(icon: Icon(Icons.bar_chart), label: 'Stats'),
            BottomNavigationBarItem(icon: Icon(Icons.person), label: 'Me'),
          ],
        ),
      ),
    );
  }
}
