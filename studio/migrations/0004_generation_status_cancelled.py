# A choices-only change: no column changes. Numbered 0004 because the adapter-registry work adds
# 0003; when both land, point this one's dependency at that 0003.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("studio", "0003_adapters_and_generation_adapter"),
    ]

    operations = [
        migrations.AlterField(
            model_name="generation",
            name="status",
            field=models.CharField(
                choices=[
                    ("queued", "Queued"),
                    ("running", "Running"),
                    ("done", "Done"),
                    ("failed", "Failed"),
                    ("cancelled", "Cancelled"),
                ],
                default="queued",
                max_length=16,
            ),
        ),
    ]
