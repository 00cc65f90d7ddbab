0 3 * * * pg_dump --format=custom --file=/var/backups/zarik/zarik-$(date +\%a-\%d).dump "$DATABASE_URL" && find /var/backups/zarik -mtime +14 -delete
# restore: pg_restore --clean --if-exists --dbname="$DATABASE_URL" /var/backups/zarik/zarik-Tue-24.dump
