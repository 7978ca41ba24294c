import 'package:flutter/material.dart';

enum Plan {
  free(0, 'Free', Colors.grey),
  plus(4.99, 'Plus', Colors.blue),
  pro(12.99, 'Pro', Colors.deepPurple);

  const Plan(this.monthly, this.label, this.color);

  final double monthly;
  final String label;
  final Color color;

  bool get isPaid => monthly > 0;

  Plan? get upgrade => index + 1 < Plan.values.length ? Plan.values[index + 1] : null;
}

class Subscriber {
  Subscriber({this.nickname, this.plan, this.tags});

  String? nickname;
  Plan? plan;
  List<String>? tags;
  late final DateTime joined = DateTime(2023, 1, 15);
}

class PlanBadge extends StatelessWidget {
  const PlanBadge({super.key, required this.subscriber});

  final Subscriber subscriber;

  @override
  Widget build(BuildContext context) {
    subscriber.plan ??= Plan.free;
    final plan = subscriber.plan!;
    final firstTag = subscriber.tags?[0];
    final nameLength = subscriber.nickname?.length ?? 0;
    return Chip(
      backgroundColor: plan.color.withOpacity(0.15),
      avatar: Icon(plan.isPaid ? Icons.workspace_premium : Icons.person_outline, color: plan.color),
      label: Text(
        '${subscriber.nickname ?? 'Anonymous'} · ${plan.label}'
        '${plan.upgrade?.label != null ? ' → ${plan.upgrade!.label}' : ''}'
        '${firstTag == null ? '' : ' #$firstTag'} ($nameLength)',
      ),
      deleteIcon: plan.upgrade == null ? null : const Icon(Icons.arrow_upward),
      onDeleted: plan.upgrade == null ? null : () => subscriber.plan = plan.upgrade,
    );
  }
}
