import 'package:flutter/material.dart';

class ContactTile extends StatelessWidget {
  const ContactTile({super.key});

  @override
  Widget build(BuildContext context) {
    return const ListTile(
      leading: CircleAvatar(child: Text('MR')),
      title: Text('Maya Rossi'),
      subtitle: Text('+39 333 120 4477'),
      trailing: Icon(Icons.phone),
    );
  }
}
