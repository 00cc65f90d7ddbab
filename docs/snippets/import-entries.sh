curl -sf -H "$AUTH" -F file=@players.csv -F new_club="Нарды Тулы" "$API/tournaments/friday/entries/import/?dry_run=1"
