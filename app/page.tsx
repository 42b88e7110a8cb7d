export default function HomePage() {
  return (
    <main className="p-8">
      <h1 className="text-2xl font-semibold">Fleetmap</h1>
      <p className="mt-2 text-slate-600">The live fleet map is starting up.</p>
    </main>
  );
}
