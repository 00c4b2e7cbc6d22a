# A choices-only change: no column changes. Numbered 0004 because the adapter-registry work adds
# 0003; when both land, point this one's dependency at that 0003.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("studio", "0002_api_keys_and_api_generations"),
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
