import 'package:flutter/material.dart';

class VolumeSlider extends StatefulWidget {
  const VolumeSlider({super.key});

  @override
  State<VolumeSlider> createState() => _VolumeSliderState();
}

class _VolumeSliderState extends State<VolumeSlider> {
  double _volume = 0.6;
  bool _muted = false;

  @override
  Widget build(BuildContext context) {
    return Row(
      children: [
        IconButton(
          icon: Icon(_muted ? Icons.volume_off : Icons.volume_up),
          onPressed: () => setState(() => _muted = !_muted),
        ),
        Expanded(
          child: Slider(
            value: _muted ? 0 : _volume,
            min: 0,
            max: 1,
            divisions: 20,
            label: '${(_volume * 100).round()}%',
            onChanged: (v) => setState(() {
              _volume = v;
              _muted = false;
            }),
          ),
        ),
      ],
    );
  }
}
