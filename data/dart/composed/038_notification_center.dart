import 'package:flutter/material.dart';

class NotificationCenter extends StatelessWidget {
  const NotificationCenter({super.key});

  @override
  Widget build(BuildContext context) {
    return Scaffold(
      appBar: AppBar(
        title: const Text('Notifications'),
        actions: [
          TextButton(onPressed: () {}, child: const Text('Mark all read')),
        ],
      ),
      body: ListView(
        children: const [
          ListTile(
            leading: Icon(Icons.local_shipping, color: Colors.orange),
            title: Text('Your parcel is out for delivery'),
            subtitle: Text('Arriving between 14:00 and 16:00'),
          ),
          ListTile(
            leading: Icon(Icons.favorite, color: Colors.pink),
            title: Text('Noor liked your photo'),
            subtitle: Text('2 hours ago'),
          ),
          ListTile(
            leading: Icon(Icons.security, color: Colors.red),
            title: Text('New sign-in from Chrome on Windows'),
            subtitle: Text('Yesterday, 22:17'),
          ),
          ListTile(
            leading: Icon(Icons.discount, color: Colors.green),
            title: Text('Weekend sale: 30% off'),
            subtitle: Text('Ends Sunday'),
          ),
        ],
      ),
    );
  }
}
