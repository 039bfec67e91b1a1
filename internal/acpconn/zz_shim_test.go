package acpconn

const MaxWaiting = 32
