import 'package:flutter/material.dart';

class DarkModeToggle extends StatefulWidget {
  const DarkModeToggle({super.key});

  @override
  State<DarkModeToggle> createState() => _DarkModeToggleState();
}

class _DarkModeToggleState extends State<DarkModeToggle> {
  bool _darkMode = false;
  bool _autoSwitch = true;

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(title: const Text('Appearance')),
      body: Column(
        children: [
          SwitchListTile(
            title: const Text('Dark mode'),
            value: _darkMode,
            onChanged: (value) => setState(() => _darkMode = value),
          ),
          SwitchListTile(
            title: const Text('Follow sunset'),
            subtitle: const Text('Switch automatically at 19:30'),
            value: _autoSwitch,
            onChanged: (value) {
              setState(() {
                _autoSwitch = value;
              });
            },
          ),
        ],
      ),
    );
  }
}
